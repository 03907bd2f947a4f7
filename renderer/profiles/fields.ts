// Reading and writing one field of a properties.json object by its dotted path, keeping
// every other field (the ones the console does not know included) as it is.
export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function getPath(json: Json, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), json);
}

export function setPath(json: Json, path: string, value: unknown): Json {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) {
    const copy = { ...json };
    if (value === undefined) delete copy[head!];
    else copy[head!] = value;
    return copy;
  }
  const child = isObject(json[head!]) ? (json[head!] as Json) : {};
  return { ...json, [head!]: setPath(child, rest.join('.'), value) };
}
