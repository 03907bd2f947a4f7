// JSON forms, as the service stores them in `json_forms` (imported with pre-builts and projects):
// the form a ShowJsonForm manual task asks an operator to fill. Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { DocumentName } from './ids';

/** A form document as exported: `name`, its JSON `schema`, `uiSchema`, the builder's `struct`; every field kept. */
export const JsonForm = z
  .object({
    name: z.string(),
    description: z.string().nullable().optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    uiSchema: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();
export type JsonForm = z.infer<typeof JsonForm>;

export const jsonFormsOperations = defineOperations({
  'jsonForms.get': {
    method: 'GET',
    path: '/json-forms/forms/:id',
    summary: 'One JSON form by its unique name (the form_id a ShowJsonForm task names), as stored',
    params: z.object({ id: DocumentName }),
    output: JsonForm,
  },
});
