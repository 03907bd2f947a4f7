// The forms of the Automations page: an automation (name, description, the workflow it starts)
// and a trigger of one (name, type, an endpoint trigger's route and JSON schema, enabled).
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { AutomationOverview, TriggerType } from '../../core/contract/automations';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';
import { useWorkflowList } from '../workflows/useWorkflowList';


export function AutomationForm({ existing, onDone }: { existing?: AutomationOverview; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [workflow, setWorkflow] = useState(existing?.workflow ?? '');
  const workflows = useWorkflowList();
  const save = useMutation({
    mutationFn: () => {
      const body = { name, description, componentType: 'workflows' as const, componentName: workflow || null };
      return existing ? call('automations.update', { params: { id: existing._id }, body }) : call('automations.create', { body });
    },
    onSuccess: () => {
      void refreshAfter(queryClient, 'automations');
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const label = existing ? `Edit automation ${existing.name}` : 'New automation';
  return (
    <form onSubmit={submit} aria-label={label} className="automation-form">
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Description <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <label>
        Workflow{' '}
        <select value={workflow} onChange={(e) => setWorkflow(e.target.value)}>
          <option value="">(none yet)</option>
          {workflows.data?.items.map((w) => (
            <option key={w.name} value={w.name}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      <div className="form-actions">
        <button type="submit" disabled={save.isPending}>
          {existing ? 'Save' : 'Create'}
        </button>{' '}
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {save.isError && <Alert>Cannot save: {save.error.message}</Alert>}
    </form>
  );
}

export function TriggerForm({ automationId, onDone }: { automationId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<TriggerType>('manual');
  const [routeName, setRouteName] = useState('');
  const [schema, setSchema] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [schemaError, setSchemaError] = useState<string>();
  const save = useMutation({
    mutationFn: (parsedSchema: Record<string, unknown> | null) =>
      call('triggers.create', {
        body: {
          name,
          type,
          enabled,
          actionId: automationId,
          ...(type === 'endpoint' ? { routeName, verb: 'POST' as const, schema: parsedSchema } : {}),
          ...(type === 'manual' ? { legacyWrapper: false } : {}),
        },
      }),
    onSuccess: () => {
      void refreshAfter(queryClient, 'automations');
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown> | null = null;
    if (type === 'endpoint' && schema.trim()) {
      try {
        parsed = JSON.parse(schema) as Record<string, unknown>;
      } catch (error) {
        setSchemaError(`not JSON: ${(error as Error).message}`);
        return;
      }
    }
    setSchemaError(undefined);
    save.mutate(parsed);
  };
  return (
    <form onSubmit={submit} aria-label="New trigger" className="automation-form">
      <label>
        Trigger name <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Type{' '}
        <select value={type} onChange={(e) => setType(e.target.value as TriggerType)}>
          <option value="manual">manual</option>
          <option value="endpoint">endpoint (webhook)</option>
        </select>
      </label>
      {type === 'endpoint' && (
        <>
          <label>
            Route name <input value={routeName} onChange={(e) => setRouteName(e.target.value)} required pattern="[A-Za-z0-9_\-]+" />
          </label>
          <label>
            Body schema (JSON, optional) <textarea value={schema} onChange={(e) => setSchema(e.target.value)} rows={4} />
          </label>
          {schemaError && <Alert look="field">Body schema: {schemaError}</Alert>}
        </>
      )}
      <label>
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="form-actions">
        <button type="submit" disabled={save.isPending}>
          Add trigger
        </button>{' '}
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {save.isError && <Alert>Cannot add the trigger: {save.error.message}</Alert>}
    </form>
  );
}
