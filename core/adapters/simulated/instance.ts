// A simulated adapter instance: a service config with a `simulation` section, kept in the
// console's own `simulated_adapters` collection (never in `service_configs`, which a real
// server sharing the store would read). It runs in the console's process: no package, no child;
// its package is made from the methods the workflows call, and every call is answered by its rules.
import type { AdapterPackage } from '../package';
import type { ServiceConfig } from '../service-config';
import { answerOf, simulationOf, type Simulation, type SimulatedAnswer } from './rules';

export const SIMULATED_ADAPTERS = 'simulated_adapters';

export const isSimulated = (config: Record<string, unknown>) => simulationOf(config) !== undefined;

/** The package a simulated instance stands for: its type, with the methods workflows call of it. */
export function simulatedPackage(config: ServiceConfig, simulation: Simulation): AdapterPackage {
  return {
    name: `simulated:${config.type}`,
    export: config.type,
    title: config.type,
    version: 'simulated',
    description: `simulated ${config.type} (answers by its rules, not a live system)`,
    dir: '',
    src: '',
    methods: Object.keys(simulation.methods)
      .sort((a, b) => a.localeCompare(b))
      .map((name) => ({ name, input: [], task: true, output: { name: simulation.methods[name]?.output ?? 'result', type: 'object' } })),
    secretPointers: [],
    source: 'simulated',
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Answers the calls of one simulated instance, counting each method's calls (for `nth` and `share`). */
export class SimulatedCalls {
  private readonly counts = new Map<string, number>();

  constructor(private config: ServiceConfig) {}

  /** A changed config (its rules edited) answers from now on; the counts go on. */
  reconfigure(config: ServiceConfig) {
    this.config = config;
  }

  /** The method's outgoing variable as pronghorn.json names it, when the simulation knows it. */
  output(method: string): string | undefined {
    return simulationOf(this.config)?.methods[method]?.output;
  }

  /** The answer's variable: the schema's name, else `result` and not declared (the task's declared outgoing takes it). */
  outputOf(method: string): { output: string; outputDeclared: boolean } {
    const output = this.output(method);
    return { output: output ?? 'result', outputDeclared: output !== undefined };
  }

  async call(method: string, args: Record<string, unknown>): Promise<SimulatedAnswer> {
    const count = (this.counts.get(method) ?? 0) + 1;
    this.counts.set(method, count);
    const rules = simulationOf(this.config)?.methods[method]?.rules ?? [];
    const { answer, latencyMs } = answerOf(this.config.id, method, rules, { args, count });
    if (latencyMs > 0) await sleep(latencyMs);
    return answer;
  }

  callCount(method: string): number {
    return this.counts.get(method) ?? 0;
  }
}
