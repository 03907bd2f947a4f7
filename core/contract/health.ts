// Operations of the console's own status (the status bar, scripts that watch the server).
import { z } from 'zod';
import { defineOperations } from './operation';

export const ServiceStatus = z.object({
  service: z.string(),
  status: z.enum(['running', 'failed']),
  detail: z.string().optional(),
});

export const HealthStatus = z.object({
  release: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  profile: z.string(),
  store: z.enum(['embedded', 'mongodb']),
  services: z.array(ServiceStatus),
  taskWorker: z.object({ running: z.boolean() }),
});
export type HealthStatus = z.infer<typeof HealthStatus>;

export const healthOperations = defineOperations({
  'health.status': {
    method: 'GET',
    path: '/health/status',
    summary: 'Release, server, active profile, store and task worker of this console',
    output: HealthStatus,
  },
});
