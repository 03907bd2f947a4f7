// MOP's command templates (`mop_templates`, filled by imports), as the service's MOP application answers
// its clients: list them, read one by name, create one and update one (`{ n, ok, nModified }`, as MOP
// answers its writes). Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { DocumentName } from './ids';

/** A command template as stored (every field kept): its `name` and `commands`. */
const CommandTemplate = z.looseObject({ name: z.string(), commands: z.array(z.unknown()).optional() });
/** A template as sent: a name, and whatever else it carries. */
const SentTemplate = z.looseObject({ name: z.string({ error: 'a command template needs a name' }).trim().min(1, 'a command template needs a name') });
const WriteResult = z.object({ n: z.number(), ok: z.number(), nModified: z.number() });

export const mopOperations = defineOperations({
  'mop.listTemplates': {
    method: 'GET',
    path: '/mop/listTemplates',
    summary: "Every command template, as MOP lists them (an array)",
    output: z.array(CommandTemplate),
  },
  'mop.listATemplate': {
    method: 'GET',
    path: '/mop/listATemplate/:name',
    summary: 'The command template of that name, as MOP answers it: an array holding it, empty when there is none',
    params: z.object({ name: DocumentName }),
    output: z.array(CommandTemplate),
  },
  'mop.createTemplate': {
    method: 'POST',
    path: '/mop/createTemplate',
    summary: 'Create a command template (`{ mop: <template> }`) with a unique name: `{ n, ok, nModified }`; 409 when a template has that name',
    body: z.object({ mop: SentTemplate }, { error: 'send { "mop": <the command template> }' }),
    output: WriteResult,
  },
  'mop.updateTemplate': {
    method: 'POST',
    path: '/mop/updateTemplate/:mopID',
    summary: 'Replace the command template named (or of the `_id`) `mopID` by `{ mop: <template> }`: `{ n, ok, nModified }` (n 0 when there is none)',
    params: z.object({ mopID: DocumentName }),
    body: z.object({ mop: SentTemplate }, { error: 'send { "mop": <the command template> }' }),
    output: WriteResult,
  },
});
