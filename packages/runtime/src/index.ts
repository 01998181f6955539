export * from './limits';
export type { RuntimeErrorCode, RuntimeError, Failure } from './errors';
export {
  encodeFrame,
  decodeFrames,
  frameBodyBytes,
  sniffRequestId,
  EMPTY_DECODER,
  OVERSIZE_HEAD_BYTES,
  type DecoderState,
  type FrameEvent,
} from './frame';
export { TRUFFLEPIG_VERSION, compareVersions, daemonIsNewer } from './version';
export {
  BUILTIN_VERBS,
  ERROR_EXIT_CODE,
  isBuiltinVerb,
  parseRequest,
  parseReply,
  serializeRequest,
  errorReply,
  versionMismatchReply,
  type DaemonRequest,
  type DaemonReply,
  type OptionValue,
} from './protocol';
export { socketPathFor, lockPathFor, logPathFor, shortSocketDirectory } from './paths';
export { acquireDaemonLock, daemonLockState, type DaemonLock, type DaemonLockState } from './lock';
export { isIgnoredPath } from './watch';
export type { ReconcileRun, ReconcileReason } from './scheduler';
export type { DaemonStatus } from './status';
export {
  serveRoot,
  type RootDaemonOptions,
  type RunningDaemon,
  type RequestHandler,
  type RequestContext,
  type ExitReason,
} from './server';
export {
  serveCoordinator,
  type CoordinatorOptions,
  type CoordinatorStatus,
  type RunningCoordinator,
} from './coordinator';
export type { HandlerAnswer } from './service';
export {
  sendRequest,
  pingDaemon,
  daemonStatus,
  stopDaemon,
  type SendResult,
  type SendFailure,
  type SendFailureCode,
  type RequestInput,
} from './client';
export { startDetachedDaemon, type StartedDaemon } from './start';
