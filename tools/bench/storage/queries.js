'use strict';
// Ten identifier and ten free-text queries per corpus (identifiers of the core benchmark's
// queries.js for the Rust corpus; the kernel examples and their like for Linux),
// and three substrings for the trigram table.

const BENCH = {
  identifiers: [
    'JoinHandle',
    'spawn_blocking',
    'RegexBuilder',
    'parse_quote',
    'ArgMatches',
    'poll_ready',
    'notify_waiters',
    'HeaderMap',
    'TcpListener',
    'Punctuated',
  ],
  freeText: [
    'graceful shutdown',
    'work stealing',
    'trailing comma',
    'case insensitive',
    'Sets the maximum',
    'spawn a blocking task',
    'parse command line arguments',
    'read bytes from the socket',
    'compile a regular expression',
    'http request headers',
  ],
  substrings: ['spawn_blocking(', 'impl<T> Drop for', 'fn poll_ready'],
};

const KERNEL = {
  identifiers: [
    'kmalloc',
    'spin_lock_irqsave',
    'task_struct',
    'schedule',
    'copy_from_user',
    'mutex_lock',
    'list_for_each_entry',
    'kfree',
    'EXPORT_SYMBOL_GPL',
    'rcu_read_lock',
  ],
  freeText: [
    'page fault handler',
    'memory allocation failure',
    'network device driver',
    'file system superblock',
    'interrupt request handler',
    'scheduler run queue',
    'dma buffer mapping',
    'usb device probe',
    'timer expiry callback',
    'block device request queue',
  ],
  substrings: ['static int __init', 'spin_lock_irqsave(&', 'kmalloc(sizeof'],
};

module.exports = { queriesFor: (corpus) => (corpus.startsWith('kernel') ? KERNEL : BENCH) };
