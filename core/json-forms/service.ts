// JSON forms: the `json_forms` collection the pre-built and project imports fill, read by name for
// the ShowJsonForm manual task (JsonForms application), whose operator fills the form's schema.
import { ConsoleError } from '../errors';
import type { Handler } from '../dispatch/dispatch';
import type { Collection } from '../store/port';
import { escapeKeys, insertNamed, refuseTakenName, unescapeKeys } from '../store/documents';
import type { JsonForm } from '../contract/json-forms';

export const JSON_FORMS_COLLECTION = 'json_forms';

export interface JsonFormsDeps {
  /** The active profile's `json_forms` (read at each call: the profile can change). */
  forms: () => Collection;
  /** Throws (503) while the JsonForms application is stopped: its forms stop with it. */
  guard?: (what: string) => void;
}

const taken = (name: string) => new ConsoleError('conflict', `a JSON form named "${name}" exists already`, { name });

/** A stored form as the service answers it: its keys as imported, with `_id`, and `id` where it has none. */
function answerOf(form: Record<string, unknown>): JsonForm & { _id: string } {
  const { _id, ...rest } = unescapeKeys(form);
  return { ...rest, name: String(rest.name), _id: String(_id), ...(rest.id === undefined ? { id: String(_id) } : {}) };
}

export function createJsonFormsService(deps: JsonFormsDeps) {
  return {
    async list(): Promise<(JsonForm & { _id: string })[]> {
      deps.guard?.('listing JSON forms');
      return (await deps.forms().find({}, { sort: { name: 1 } })).map(answerOf);
    },

    /** A new form, by a unique name; who made it is the console's operator. */
    async create(form: Record<string, unknown> & { name: string }, operator: string): Promise<JsonForm & { _id: string }> {
      deps.guard?.('creating a JSON form');
      const name = form.name.trim();
      const now = new Date().toISOString();
      const { _id: _given, id: _id2, ...fields } = form;
      const doc = { ...escapeKeys(fields), name, created: now, createdBy: operator, lastUpdated: now, lastUpdatedBy: operator };
      return answerOf({ ...doc, _id: await insertNamed(deps.forms(), doc, () => taken(name)) });
    },

    /** The form of `_id` `id` with the fields `options` gives; its `_id` and who made it and when are kept. */
    async update(id: string, options: Record<string, unknown> & { name?: string }, operator: string): Promise<{ status: 'success'; message: string }> {
      deps.guard?.('updating a JSON form');
      const existing = await deps.forms().findOne({ _id: id });
      if (!existing) throw new ConsoleError('not_found', `no JSON form has the _id "${id}"`);
      const name = options.name?.trim() ?? String(existing.name);
      await refuseTakenName(deps.forms(), existing, name, () => taken(name));
      const { _id: _given, id: _id2, created: _c, createdBy: _cb, ...fields } = options;
      await deps.forms().updateOne({ _id: id }, { $set: { ...escapeKeys(fields), name, lastUpdated: new Date().toISOString(), lastUpdatedBy: operator } });
      return { status: 'success', message: `form "${name}" updated` };
    },

    async remove(ids: string[]): Promise<{ status: 'success'; n: number }> {
      deps.guard?.('deleting JSON forms');
      return { status: 'success', n: await deps.forms().deleteMany({ _id: { $in: ids } }) };
    },

    /** A form by its name (as the ShowJsonForm task names it), else by its `_id` (as the service's clients ask for it). */
    async get(name: string): Promise<JsonForm> {
      deps.guard?.('reading a JSON form');
      const form = (await deps.forms().findOne({ name })) ?? (await deps.forms().findOne({ _id: name }));
      if (!form) throw new ConsoleError('not_found', `no JSON form named "${name}" or of that _id: import the pre-built or project that carries it`);
      // As listed, without its `_id` (the form's `id` says it).
      const { _id: _stored, ...shown } = answerOf(form);
      return shown;
    },
  };
}

export type JsonFormsService = ReturnType<typeof createJsonFormsService>;

type JsonFormHandlers = { [N in 'jsonForms.get' | 'jsonForms.list' | 'jsonForms.create' | 'jsonForms.update' | 'jsonForms.delete']: Handler<N> };

export function jsonFormsHandlers(service: JsonFormsService, operator: () => string = () => 'operator'): JsonFormHandlers {
  return {
    'jsonForms.get': ({ params }) => service.get(params.id),
    'jsonForms.list': () => service.list(),
    'jsonForms.create': ({ body }) => service.create(body, operator()),
    'jsonForms.update': ({ params, body }) => service.update(params.id, body.options, operator()),
    'jsonForms.delete': ({ body }) => service.remove(body.ids),
  };
}
