/** Errors navigation answers itself; everything else it returns is a value. */
import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

export type NavigationErrorCode = 'no_definition';

export type NavigationError = CodedError<NavigationErrorCode>;

export type Outcome<T> = BaseOutcome<T, NavigationErrorCode>;

export const fail = failWith<NavigationErrorCode>();

export { ok };
