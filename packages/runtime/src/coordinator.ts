// The workspace coordinator: one per workspace file, behind its state directory's lock,
// answering the workspace's read verbs on its own socket. Unlike a root daemon it owns no
// root and writes no index: member daemons keep their roots fresh and publish, the
// coordinator only reads what they published. So it has no reconcile schedule and no file
// watcher; it stops when its workspace file is gone, when its lock is lost, or when asked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { failure, type Failure } from './errors';
import type { DaemonRequest } from './protocol';
import {
  holdService,
  ServedProcess,
  type ExitReason,
  type HandlerAnswer,
  type HeldService,
  type ServiceLoad,
  type ServiceOptions,
} from './service';

export interface CoordinatorOptions extends ServiceOptions {
  /** The workspace file served; the handler reads it per request, so edits apply at once. */
  readonly configFile: string;
  /** Where the lock and socket live (beside the workspace's result sets). */
  readonly stateDir: string;
  readonly handler: (req: DaemonRequest) => Promise<HandlerAnswer>;
}

/** The coordinator's `status` answer. */
export interface CoordinatorStatus {
  readonly pid: number;
  readonly version: string;
  readonly role: 'coordinator';
  readonly configFile: string;
  readonly stateDir: string;
  readonly socketPath: string;
  /** ISO 8601 start time. */
  readonly startedAt: string;
  readonly uptimeMs: number;
  readonly requests: { readonly served: number; readonly inFlight: number };
  readonly memory: { readonly rssBytes: number; readonly heapUsedBytes: number };
}

export interface RunningCoordinator {
  readonly pid: number;
  readonly socketPath: string;
  readonly configFile: string;
  readonly stateDir: string;
  status(): CoordinatorStatus;
  /** Stop serving, remove socket and lock, let in-flight requests finish (≤ STOP_GRACE_MS). */
  stop(): Promise<void>;
  /** `root_gone`: the workspace file was removed. */
  readonly done: Promise<ExitReason>;
}

function defaultLog(line: string): void {
  process.stderr.write(`${new Date().toISOString()} trufflepig coordinator ${process.pid}: ${line}\n`);
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Start coordinating `configFile` in this process. Answers `daemon_running` (with its pid) when another process holds `stateDir`. */
export async function serveCoordinator(
  opts: CoordinatorOptions,
): Promise<{ ok: true; coordinator: RunningCoordinator } | Failure> {
  const configFile = path.resolve(opts.configFile);
  if (!isFile(configFile))
    return failure('root_not_found', `${configFile} is not a workspace file; pass an existing one`);
  const held = await holdService(path.resolve(opts.stateDir), configFile);
  if (!held.ok) return held;
  return { ok: true, coordinator: new Coordinator(opts, configFile, held.held).start() };
}

class Coordinator extends ServedProcess<CoordinatorStatus> implements RunningCoordinator {
  readonly stateDir: string;

  constructor(
    private readonly opts: CoordinatorOptions,
    readonly configFile: string,
    held: HeldService,
  ) {
    super(held, opts, defaultLog);
    this.stateDir = held.stateDir;
  }

  start(): this {
    this.service.start();
    this.service.log(`coordinating ${this.configFile} on ${this.socketPath} (version ${this.service.version})`);
    return this;
  }

  // ServiceRole: what the socket service asks of a coordinator.

  handle(req: DaemonRequest): Promise<HandlerAnswer> {
    return this.opts.handler(req);
  }

  identity(): Record<string, unknown> {
    return { workspace: this.configFile };
  }

  describe(load: ServiceLoad): CoordinatorStatus {
    return {
      pid: this.pid,
      version: this.service.version,
      role: 'coordinator',
      configFile: this.configFile,
      stateDir: this.stateDir,
      socketPath: this.socketPath,
      startedAt: new Date(load.startedAt).toISOString(),
      uptimeMs: Date.now() - load.startedAt,
      requests: { served: load.served, inFlight: load.inFlight },
      memory: load.memory,
    };
  }

  gone(): ExitReason | undefined {
    if (isFile(this.configFile)) return undefined;
    this.service.log(`workspace file ${this.configFile} is gone; exiting`);
    return 'root_gone';
  }

  async stopped(): Promise<void> {
    // Nothing of its own runs: member daemons keep their roots.
  }
}
