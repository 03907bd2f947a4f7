// The task worker of this server and the servers working tasks on the same
// database (reference: GET /workflow_engine/workers/status, taskWorker/activate
// and /deactivate). Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { RecordId } from './ids';

export const ServerBeat = z.object({
  serverId: z.string(),
  serverName: z.string(),
  taskWorker: z.boolean(),
  heartbeatAt: z.number(),
  /** Seen within the last few heartbeats. */
  alive: z.boolean(),
  self: z.boolean(),
});
export type ServerBeat = z.infer<typeof ServerBeat>;

/** As the service says where a worker's startup setting comes from: its service config (`clusterValue`), its properties.json (`localValue`). */
const WorkerSetting = z.enum(['enabled', 'disabled', 'not defined']);

export const WorkersStatus = z.object({
  /** `startupValue` is the profile's processTasksOnStart (its `localValue`), which applies at the next start. */
  taskWorker: z.object({ running: z.boolean(), clusterValue: WorkerSetting, localValue: WorkerSetting, startupValue: z.boolean(), workerId: z.string().optional() }),
  jobWorker: z.object({ running: z.boolean(), clusterValue: WorkerSetting, localValue: WorkerSetting, startupValue: z.boolean() }),
  servers: z.array(ServerBeat),
});
export type WorkersStatus = z.infer<typeof WorkersStatus>;

export const workersOperations = defineOperations({
  'workers.declareGone': {
    method: 'POST',
    path: '/workflow_engine/servers/:serverId/gone',
    summary:
      "Failover: declare a failed server gone. Once its heartbeat has stopped (409 while it still beats), the tasks its workers held are queued again now, fenced (a late write of that server matches nothing), instead of after their lease",
    params: z.object({ serverId: RecordId }),
    output: z.object({ serverId: z.string(), heartbeatAt: z.number().nullable(), requeued: z.number() }),
  },
  'workers.status': {
    method: 'GET',
    path: '/workflow_engine/workers/status',
    summary: "This server's task and job workers, and every server working tasks on the same database",
    output: WorkersStatus,
  },
  'workers.activateTaskWorker': {
    method: 'POST',
    path: '/workflow_engine/taskWorker/activate',
    summary: 'Start working tasks now (processTasksOnStart is unchanged)',
    output: WorkersStatus,
  },
  'workers.deactivateTaskWorker': {
    method: 'POST',
    path: '/workflow_engine/taskWorker/deactivate',
    summary: 'Stop working tasks now; running tasks go back to the queue (processTasksOnStart is unchanged)',
    output: WorkersStatus,
  },
});
