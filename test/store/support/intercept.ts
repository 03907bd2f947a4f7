// A store whose collections' calls a test can watch or hold up: `replace` answers, for a
// collection, the methods to use instead of its own (each may call the collection it is
// given); every other call goes straight through.
import type { Collection, Doc, Store } from '../../../core/store/port';

export function interceptCollections(inner: Store, replace: (name: string, collection: Collection<Doc>) => Partial<Collection<Doc>> | undefined): Store {
  return {
    ...inner,
    collection: <T extends Doc = Doc>(name: string): Collection<T> => {
      const collection = inner.collection<T>(name);
      const replaced = replace(name, collection);
      if (!replaced) return collection;
      return new Proxy(collection, {
        get(target, key, receiver) {
          if (Object.hasOwn(replaced, key)) return replaced[key as keyof Collection<Doc>];
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}
