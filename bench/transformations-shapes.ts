// Six JST documents of one shape (Array.map through a nested function that reads two fields of
// its item into a new object, as the bench's 50-item map does), each with its own field names,
// incoming and outgoing names and item shape, and each beside its plain-JavaScript twin written
// out with literal names, as a developer would write it. Run in turn in one process, they show
// whether the compiled form stays fast when the documents it runs differ only in their names
// (code shared among documents sees every document's names and shapes; code made per document
// sees one).
import type { JsonSchema, JstDocument, JstScope, Step } from '../core/transformations/types';

type Incoming = Record<string, unknown>;

export interface ShapeCase {
  name: string;
  doc: JstDocument;
  incoming: Incoming;
  plain: (incoming: Incoming) => Incoming;
}

interface Spec {
  /** The incoming array's name, the outgoing array's name. */
  list: string;
  out: string;
  /** [output name, item field read] twice. */
  picks: [[string, string], [string, string]];
  /** One item (50 are made, each field's value varied by its index). */
  item: (i: number) => Record<string, unknown>;
}

const assign = (id: number, from: [string, string | number, string], to: [string, string | number, string]): Step => ({
  id,
  type: 'assign',
  from: { location: from[0], name: from[1], ptr: from[2] },
  to: { location: to[0], name: to[1], ptr: to[2] },
});

const step = (id: number, method: string, args: unknown[]): Step => ({ id, type: method === 'new Object' ? 'declaration' : 'method', library: 'Object', method, args });

function schemaOf(value: unknown): JsonSchema {
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  return { type: 'string' };
}

/** The map document of a spec, wired as the designer wires the bench's map. */
function documentOf(spec: Spec): JstDocument {
  const [[outA, inA], [outB, inB]] = spec.picks;
  const sample = spec.item(0);
  const fn: JstScope = {
    name: `Pick ${spec.out}`,
    id: `Pick ${spec.out}`,
    incoming: [{ $id: 'currentValue' }, { $id: 'index', optional: true }, { $id: 'array', optional: true }, { $id: 'thisArg', isContext: true, isThis: true, isIndexed: true, type: 'object', properties: {} }],
    outgoing: [{ $id: 'newValue' }],
    steps: [
      step(1, 'getProperty', [null, inA]),
      assign(2, ['incoming', 'currentValue', ''], ['method', 1, '/args/0/value']),
      step(3, 'getProperty', [null, inB]),
      assign(4, ['incoming', 'currentValue', ''], ['method', 3, '/args/0/value']),
      step(5, 'new Object', [null]),
      step(6, 'setProperty', [null, outA, null]),
      assign(7, ['declaration', 5, '/return'], ['method', 6, '/args/0/value']),
      assign(8, ['method', 1, '/return'], ['method', 6, '/args/2/value']),
      step(9, 'setProperty', [null, outB, null]),
      assign(10, ['method', 6, '/return'], ['method', 9, '/args/0/value']),
      assign(11, ['method', 3, '/return'], ['method', 9, '/args/2/value']),
      assign(12, ['method', 9, '/return'], ['outgoing', 'newValue', '']),
    ],
    functions: [],
  };
  const properties = Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, schemaOf(value)]));
  return {
    name: `Map ${spec.list} to ${spec.out} - Bench`,
    incoming: [{ $id: spec.list, type: 'array', items: { type: 'object', properties, required: [] } }],
    outgoing: [{ $id: spec.out, type: 'array' }],
    steps: [
      { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, fn.name] },
      assign(2, ['incoming', spec.list, ''], ['method', 1, '/args/0/value']),
      assign(3, ['method', 1, '/return'], ['outgoing', spec.out, '']),
    ],
    functions: [fn],
  };
}

const N = 50;
const many = <T>(item: (i: number) => T) => Array.from({ length: N }, (_, i) => item(i));

interface Product {
  sku: string;
  title: string;
  price: number;
  stock: number;
}
interface Host {
  hostname: string;
  address: string;
  port: number;
  os: string;
  rack: string;
}
interface Account {
  login: string;
  email: string;
  active: boolean;
}
interface Device {
  serial: string;
  model: string;
  site: string;
  vendor: string;
}
interface Ticket {
  number: number;
  summary: string;
  priority: number;
}
interface Link {
  a: string;
  b: string;
  speed: number;
  up: boolean;
}

const SPECS: [Spec, (incoming: Incoming) => Incoming][] = [
  [
    { list: 'products', out: 'lines', picks: [['code', 'sku'], ['text', 'title']], item: (i) => ({ sku: `sku-${i}`, title: `product ${i}`, price: i * 1.5, stock: i }) },
    (incoming) => ({ lines: (incoming.products as Product[]).map((p) => ({ code: p.sku, text: p.title })) }),
  ],
  [
    { list: 'hosts', out: 'targets', picks: [['host', 'hostname'], ['ip', 'address']], item: (i) => ({ hostname: `h${i}.example.net`, address: `10.0.0.${i}`, port: 22, os: 'linux', rack: `r${i % 4}` }) },
    (incoming) => ({ targets: (incoming.hosts as Host[]).map((h) => ({ host: h.hostname, ip: h.address })) }),
  ],
  [
    { list: 'accounts', out: 'users', picks: [['user', 'login'], ['mail', 'email']], item: (i) => ({ login: `user${i}`, email: `user${i}@example.com`, active: i % 2 === 0 }) },
    (incoming) => ({ users: (incoming.accounts as Account[]).map((a) => ({ user: a.login, mail: a.email })) }),
  ],
  [
    { list: 'devices', out: 'inventory', picks: [['device', 'serial'], ['site', 'site']], item: (i) => ({ serial: `SN${1000 + i}`, model: 'mx480', site: `site-${i % 7}`, vendor: 'juniper' }) },
    (incoming) => ({ inventory: (incoming.devices as Device[]).map((d) => ({ device: d.serial, site: d.site })) }),
  ],
  [
    { list: 'tickets', out: 'queue', picks: [['ticket', 'number'], ['about', 'summary']], item: (i) => ({ number: 5000 + i, summary: `ticket ${i}`, priority: i % 5 }) },
    (incoming) => ({ queue: (incoming.tickets as Ticket[]).map((t) => ({ ticket: t.number, about: t.summary })) }),
  ],
  [
    { list: 'links', out: 'speeds', picks: [['endpoint', 'a'], ['rate', 'speed']], item: (i) => ({ a: `ge-0/0/${i}`, b: `ge-1/0/${i}`, speed: 1000 * (1 + (i % 3)), up: i % 9 !== 0 }) },
    (incoming) => ({ speeds: (incoming.links as Link[]).map((l) => ({ endpoint: l.a, rate: l.speed })) }),
  ],
];

export function sameShapeCases(): ShapeCase[] {
  return SPECS.map(([spec, plain]) => {
    const doc = documentOf(spec);
    return { name: doc.name, doc, incoming: { [spec.list]: many(spec.item) }, plain };
  });
}
