// The console's API described: GET /help/openapi. Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';

export const helpOperations = defineOperations({
  'help.openapi': {
    method: 'GET',
    path: '/help/openapi',
    summary:
      "The console's API as an OpenAPI 3.1 document made from its contract: every path with its methods, summary, parameters, body and answer as JSON Schema; `url` (a path such as /automation-studio/automations, its parameters as `:name` or `{name}`) answers that path's entry alone, 404 naming it when the API has none",
    query: z.looseObject({ url: z.string().min(1, 'name a path, such as /operations-manager/jobs/start').optional() }),
    output: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))) }),
  },
});
