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

/** A form as listed and created: the stored document with its `_id` (and `id`, the same, as the service answers). */
const StoredForm = JsonForm.extend({ _id: z.string() });

/** The fields a form is created with, as the service's JsonForms takes them (any other field kept). */
const NewForm = z.looseObject({
  name: z.string({ error: 'a form needs a name' }).trim().min(1, 'a form needs a name'),
  description: z.string().nullable().optional(),
  struct: z.record(z.string(), z.unknown()).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  uiSchema: z.record(z.string(), z.unknown()).optional(),
  bindingSchema: z.record(z.string(), z.unknown()).optional(),
  validationSchema: z.record(z.string(), z.unknown()).optional(),
});

export const jsonFormsOperations = defineOperations({
  'jsonForms.list': {
    method: 'GET',
    path: '/json-forms/forms',
    summary: 'Every JSON form, as stored, each with its `_id` (the service answers an array)',
    output: z.array(StoredForm),
  },
  'jsonForms.create': {
    method: 'POST',
    path: '/json-forms/forms',
    summary: "Create a JSON form with a unique name, as the service's JsonForms does: answers the document created (`created`, `createdBy`, `lastUpdated`, `lastUpdatedBy`, `_id`); 409 when a form has that name",
    body: NewForm,
    output: StoredForm,
  },
  'jsonForms.update': {
    method: 'PUT',
    path: '/json-forms/forms/:id',
    summary: "Update the JSON form of this `_id` with the fields `options` gives (the others kept; who made it and when kept), as the service's JsonForms does: `{ status, message }`; 404 when no form has the id, 409 when it is renamed to a name another form has",
    params: z.object({ id: DocumentName }),
    body: z.object({ options: z.looseObject({ name: z.string().trim().min(1, 'a form needs a name').optional() }) }, { error: 'send { "options": <the fields to update> }' }),
    output: z.object({ status: z.enum(['success', 'failure']), message: z.string() }),
  },
  'jsonForms.delete': {
    method: 'DELETE',
    path: '/json-forms/forms',
    summary: 'Delete the JSON forms whose `_id` `ids` lists: `{ status, n }`, how many were deleted',
    body: z.object({ ids: z.array(z.string().min(1, 'an id cannot be empty')).min(1, 'name at least one form _id') }),
    output: z.object({ status: z.enum(['success', 'failure']), n: z.number() }),
  },
  'jsonForms.get': {
    method: 'GET',
    path: '/json-forms/forms/:id',
    summary: 'One JSON form by its unique name (the form_id a ShowJsonForm task names), as stored',
    params: z.object({ id: DocumentName }),
    output: JsonForm,
  },
});
