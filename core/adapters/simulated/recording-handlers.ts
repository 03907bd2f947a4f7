// The recording operations (core/contract/adapters.ts): record a real instance's calls, list,
// export and import recordings, and make a simulated instance from one.
import type { Handler } from '../../dispatch/dispatch';
import { ConsoleError } from '../../errors';
import type { AdapterInstances } from '../instances';
import { checkShape } from '../service-config';
import { rulesFromRecording, type CallRecorder, type Recording } from './recordings';
import { simulationOf } from './rules';

type Ops = 'adapters.record' | 'adapters.recordings' | 'adapters.recording' | 'adapters.importRecording' | 'adapters.simulateRecording';

const summary = (r: Recording, recording: boolean) => {
  const { calls, ...rest } = r;
  return { ...rest, callCount: calls.length, recording };
};

export function recordingsHandlers(adapters: () => AdapterInstances): { [K in Ops]: Handler<K> } {
  const recorder = (): CallRecorder => {
    const found = adapters().recorder;
    if (!found) throw new ConsoleError('conflict', 'recording adapter calls is not available on this profile');
    return found;
  };
  return {
    'adapters.record': async ({ params, body }) => {
      const { config } = adapters().view(params.name);
      if (simulationOf(config)) throw new ConsoleError('bad_input', `adapter "${params.name}" is simulated: record a real instance`);
      const started = await recorder().start(params.name, config.type, body);
      return summary(started, true);
    },
    'adapters.recordings': async () => {
      const results = await recorder().list();
      return { results, total: results.length };
    },
    'adapters.recording': async ({ params }) => recorder().get(params.id),
    'adapters.importRecording': async ({ body }) => summary(await recorder().import(body.recording), false),
    'adapters.simulateRecording': async ({ params, body }) => {
      const recording = await recorder().get(params.id);
      const id = body.name ?? recording.adapter;
      const simulation = { workflows: [], methods: rulesFromRecording(recording), recording: recording._id };
      const config = checkShape({ id, type: recording.type, properties: { id }, brokers: [], groups: [], simulation }, 'body');
      const view = await adapters().saveSimulated(config);
      return { status: 'Created' as const, message: `simulated adapter "${id}" made from recording ${recording._id} (${recording.calls.length} calls)`, data: view.config };
    },
  };
}
