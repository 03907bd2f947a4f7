// The transformations operations of the contract, answered by the service.
import { ConsoleError } from '../errors';
import type { Handler } from '../dispatch/dispatch';
import { whileStoreAnswers } from '../store/errors';
import { TransformationConflictError, TransformationInvalidError, type TransformationsService } from './service';

type TransformationsHandlers = {
  'transformations.list': Handler<'transformations.list'>;
  'transformations.get': Handler<'transformations.get'>;
  'transformations.create': Handler<'transformations.create'>;
  'transformations.import': Handler<'transformations.import'>;
  'transformations.replace': Handler<'transformations.replace'>;
  'transformations.delete': Handler<'transformations.delete'>;
  'transformations.run': Handler<'transformations.run'>;
};

/** The store's unavailability as a 503 (whileStoreAnswers); an import refused as the transformation's own 400 wording. */
async function withStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await whileStoreAnswers('the transformations', work);
  } catch (error) {
    if (error instanceof TransformationConflictError) throw new ConsoleError('conflict', error.message);
    if (error instanceof TransformationInvalidError) {
      throw new ConsoleError('bad_input', `the transformation cannot be imported: ${error.message}`, { issues: error.issues.map((i) => ({ path: `body.${i.path}`, message: i.message })) });
    }
    throw error;
  }
}

const notFound = (id: string) => new ConsoleError('not_found', `no transformation with _id "${id}"`);

export function transformationsHandlers(service: TransformationsService): TransformationsHandlers {
  return {
    'transformations.list': ({ query }) => withStore(() => service.list(query)),
    'transformations.get': async ({ params }) => {
      const doc = await withStore(() => service.get(params.id));
      if (!doc) throw notFound(params.id);
      return doc;
    },
    'transformations.create': async ({ body, query }, ctx) => {
      const { saved, warnings } = await withStore(() => service.create(body, { overwrite: query.overwrite }));
      ctx.setStatus(201);
      return warnings.length > 0 ? { ...saved, warnings } : saved;
    },
    'transformations.import': async ({ body }) =>
      withStore(() => service.importTransformations([...(body.transformation !== undefined ? [body.transformation] : []), ...(body.transformations ?? [])], { overwrite: body.overwrite })),
    'transformations.replace': async ({ params, body }) => {
      const outcome = await withStore(() => service.replace(params.id, body));
      if (!outcome) throw notFound(params.id);
      return outcome.warnings.length > 0 ? { ...outcome.saved, warnings: outcome.warnings } : outcome.saved;
    },
    'transformations.delete': async ({ params }) => {
      if (!(await withStore(() => service.remove(params.id)))) throw notFound(params.id);
      return { deleted: params.id };
    },
    'transformations.run': async ({ params, body }) => {
      // A failed run (TransformationError) answers by its own code: 400 for incoming values that do not fit, else 422.
      const result = await withStore(() => service.run(params.id, body.incoming, body.options));
      if (!result) throw notFound(params.id);
      // extractOutput, as the task has it: with one outgoing value, that value without its name.
      const [only] = Object.keys(result.outgoing);
      if (body.options.extractOutput === true && Object.keys(result.outgoing).length === 1 && only !== undefined) return { outgoing: result.outgoing[only] };
      return result;
    },
  };
}
