/**
 * Errors of the facade: base's one `Outcome` shape. A workspace answer combines the codes
 * of every package it calls (index, result-cache, member-root, config, history) with its
 * own, so its code type is the union of theirs.
 */
import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

export type TpError = CodedError<string>;

export type Outcome<T> = BaseOutcome<T, string>;

export const fail = failWith<string>();

export { ok };
