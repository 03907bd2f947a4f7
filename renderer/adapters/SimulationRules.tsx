// The rules of a simulated adapter instance, per method (its service config's `simulation`
// section): an ordered list each, edited as JSON and saved with PUT /adapters/:name/properties.
// A rule: { match: {…a JSON subset of the call's arguments}, nth, share, latencyMs, response | error };
// a method's `output`: the outgoing variable its answer lands in (pronghorn.json output.name).
import { useId, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { ServiceConfig } from '../../core/contract/adapters';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';
import { jsonProblem } from './json-problem';

const EXAMPLE = '[{ "match": { "deviceName": "edge-1" }, "response": { "status": "success", "code": 200, "response": { "up": true } } }, { "nth": 3, "error": "device busy", "latencyMs": 200 }]';

export function SimulationRules({ name, config, onSaved }: { name: string; config: ServiceConfig; onSaved: (config: ServiceConfig) => void }) {
  const client = useQueryClient();
  const [text, setText] = useState(() => JSON.stringify(config.simulation, null, 2));
  const [parseError, setParseError] = useState<string>();
  // Checked as it is typed: the line and column of the first mistake, under the editor.
  const problem = useMemo(() => jsonProblem(text), [text]);
  const problemId = useId();
  const save = useMutation({
    mutationFn: (simulation: unknown) => call('adapters.update', { params: { name }, body: { properties: { ...config, simulation } } }),
    onSuccess: (answer) => {
      onSaved(answer.data);
      void refreshAfter(client, 'adapters');
    },
  });
  return (
    <form
      className="rules-editor"
      aria-label="Simulation rules"
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) {
          setParseError(`Not saved: the rules are not valid JSON at ${problem.message}`);
          return;
        }
        setParseError(undefined);
        save.mutate(JSON.parse(text));
      }}
    >
      <h3>
        What each method answers <span className="badge stub">SIMULATED</span>
      </h3>
      <p className="muted small">
        Per method, the first rule that applies answers: <code>match</code> (a JSON subset of the call&apos;s arguments), <code>nth</code> (only the nth call), <code>share</code> (a share of calls,
        0–1), after <code>latencyMs</code>, with <code>response</code> or <code>error</code>. No rule: {'{ status: "success", code: 200, response: {} }'}. Example rules: <code>{EXAMPLE}</code>
      </p>
      <p className="muted small">
        The answer lands in the method&apos;s <code>output</code> (its pronghorn.json <code>output.name</code>, kept when known); without one, in the variable the calling task declares in its{' '}
        <code>variables.outgoing</code> (<code>mop_template_results</code>, <code>renderedTemplate</code>…), as the real method&apos;s would.
      </p>
      <label>
        simulation (JSON)
        <textarea
          aria-label="simulation (JSON)"
          aria-invalid={problem !== undefined}
          aria-describedby={problemId}
          rows={Math.min(40, Math.max(14, text.split('\n').length + 1))}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <p id={problemId} className={problem ? 'error small' : 'muted small'}>
        {problem ? `Not valid JSON: ${problem.message}` : `Valid JSON, ${text.split('\n').length} lines.`}
      </p>
      <button type="submit" disabled={save.isPending}>
        Save rules
      </button>
      {save.isSuccess && <span className="good"> rules saved</span>}
      {(parseError || save.isError) && <Alert>{parseError ?? save.error?.message}</Alert>}
    </form>
  );
}
