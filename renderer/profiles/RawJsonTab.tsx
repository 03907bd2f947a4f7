// The profile's properties.json as text (secrets masked), editable: a field the form does
// not show (vaultProps, ...) is changed here. Saving goes through the same validation.
import { useState } from 'react';
import { useUnsavedChanges } from '../shell/unsaved';
import { ApiError, call } from '../api/client';
import { useProfileMutation } from './api';
import type { Json } from './fields';
import { Alert } from '../shell/Alert';

export function RawJsonTab({ id, profile }: { id: string; profile: Json }) {
  const original = `${JSON.stringify(profile, null, 2)}\n`;
  const [text, setText] = useState(original);
  const [parseError, setParseError] = useState<string>();
  const [savedText, setSavedText] = useState<string>();
  useUnsavedChanges(text !== original && text !== savedText, 'the properties.json text');
  const save = useProfileMutation((body: Json) => call('profiles.update', { params: { id }, body: body }));

  const onSave = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      setParseError(`Not valid JSON: ${(error as Error).message}`);
      return;
    }
    setParseError(undefined);
    save.mutate(parsed as Json, { onSuccess: () => setSavedText(text) });
  };

  const issues = save.error instanceof ApiError ? (save.error.body.issues ?? []) : [];
  return (
    <div className="raw-json">
      <label htmlFor={`raw-${id}`}>properties.json (passwords and other secrets are masked; the mask keeps the stored value)</label>
      <textarea
        id={`raw-${id}`}
        aria-label="Raw JSON"
        spellCheck={false}
        rows={Math.min(40, text.split('\n').length + 2)}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {parseError && (
        <Alert>
          {parseError}
        </Alert>
      )}
      {save.isError && (
        <Alert as="div">
          <p>Not saved: {save.error.message}</p>
          {issues.length > 0 && (
            <ul>
              {issues.map((issue) => (
                <li key={issue.path}>
                  {issue.path.replace(/^body\./, '')}: {issue.message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {save.isSuccess && text !== original && <p className="good">Saved.</p>}
      <div className="form-actions">
        <button className="primary" onClick={onSave} disabled={save.isPending || text === original}>
          Save JSON
        </button>
        <button onClick={() => setText(original)} disabled={text === original}>
          Revert
        </button>
      </div>
    </div>
  );
}
