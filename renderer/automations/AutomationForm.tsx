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

const REPEAT_UNITS = ['minute', 'hour', 'day', 'week', 'once'] as const;
type RepeatUnit = (typeof REPEAT_UNITS)[number];
const UNIT_MS: Record<Exclude<RepeatUnit, 'once'>, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

/** A schedule trigger's fields as the service keeps them: the first run in ms (from the local date and time given), the repeat in ms and in words. */
function scheduleFields(firstRun: string, every: string, unit: RepeatUnit, missed: 'none' | 'last') {
  const firstRunAt = new Date(firstRun).getTime();
  if (unit === 'once') return { firstRunAt, repeatInterval: 0, processMissedRuns: missed };
  const frequency = Math.max(1, Math.floor(Number(every) || 1));
  return { firstRunAt, repeatUnit: unit, repeatFrequency: frequency, repeatInterval: frequency * UNIT_MS[unit], processMissedRuns: missed };
}

export function TriggerForm({ automationId, onDone }: { automationId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<TriggerType>('manual');
  const [routeName, setRouteName] = useState('');
  const [schema, setSchema] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [schemaError, setSchemaError] = useState<string>();
  const [firstRun, setFirstRun] = useState('');
  const [every, setEvery] = useState('1');
  const [unit, setUnit] = useState<RepeatUnit>('day');
  const [missed, setMissed] = useState<'none' | 'last'>('none');
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
          ...(type === 'schedule' ? scheduleFields(firstRun, every, unit, missed) : {}),
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
          <option value="schedule">schedule</option>
        </select>
      </label>
      {type === 'schedule' && (
        <>
          <label>
            First run <input type="datetime-local" value={firstRun} onChange={(e) => setFirstRun(e.target.value)} required />
          </label>
          <label>
            Repeat every <input type="number" min={1} value={every} onChange={(e) => setEvery(e.target.value)} disabled={unit === 'once'} />{' '}
            <select aria-label="Repeat unit" value={unit} onChange={(e) => setUnit(e.target.value as RepeatUnit)}>
              {REPEAT_UNITS.map((u) => (
                <option key={u} value={u}>
                  {u === 'once' ? 'do not repeat' : `${u}s`}
                </option>
              ))}
            </select>
          </label>
          <label>
            Runs missed while no console ran{' '}
            <select value={missed} onChange={(e) => setMissed(e.target.value as 'none' | 'last')}>
              <option value="none">skip them</option>
              <option value="last">run the last one once</option>
            </select>
          </label>
        </>
      )}
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
