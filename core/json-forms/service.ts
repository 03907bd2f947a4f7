// JSON forms: the `json_forms` collection the pre-built and project imports fill, read by name for
// the ShowJsonForm manual task (JsonForms application), whose operator fills the form's schema.
import { ConsoleError } from '../errors';
import type { Handler } from '../dispatch/dispatch';
import type { Collection } from '../store/port';
import { unescapeKeys } from '../store/documents';
import type { JsonForm } from '../contract/json-forms';

export const JSON_FORMS_COLLECTION = 'json_forms';

export interface JsonFormsDeps {
  /** The active profile's `json_forms` (read at each call: the profile can change). */
  forms: () => Collection;
  /** Throws (503) while the JsonForms application is stopped: its forms stop with it. */
  guard?: (what: string) => void;
}

export function createJsonFormsService(deps: JsonFormsDeps) {
  return {
    /** A form by its name (as the ShowJsonForm task names it), else by its `_id` (as the service's clients ask for it). */
    async get(name: string): Promise<JsonForm> {
      deps.guard?.('reading a JSON form');
      const form = (await deps.forms().findOne({ name })) ?? (await deps.forms().findOne({ _id: name }));
      if (!form) throw new ConsoleError('not_found', `no JSON form named "${name}" or of that _id: import the pre-built or project that carries it`);
      // Kept as imported: keys such as JSON Schema's `$id` were escaped for the store.
      const { _id, ...rest } = unescapeKeys(form);
      return { ...rest, name: String(rest.name), ...(rest.id === undefined && _id !== undefined ? { id: String(_id) } : {}) };
    },
  };
}

export type JsonFormsService = ReturnType<typeof createJsonFormsService>;

export function jsonFormsHandlers(service: JsonFormsService): { 'jsonForms.get': Handler<'jsonForms.get'> } {
  return { 'jsonForms.get': ({ params }) => service.get(params.id) };
}
