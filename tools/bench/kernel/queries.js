'use strict';
// The kernel benchmark's queries (issue 15's targets name 10 of each kind). Identifiers are
// names every subsystem uses; free text is how an agent describes a place it has not found
// yet; the patterns include ones built only of common words, which no word index narrows.

const IDENTIFIERS = [
  'kmalloc',
  'spin_lock_irqsave',
  'mutex_lock',
  'copy_from_user',
  'task_struct',
  'schedule',
  'printk',
  'kfree',
  'list_add_tail',
  'rcu_read_lock',
];

const FREE_TEXT = [
  'page fault handler',
  'allocate a new inode',
  'wake up waiting tasks',
  'parse kernel command line',
  'tcp retransmit timeout',
  'free pages back to the buddy allocator',
  'register a character device',
  'flush the tlb',
  'handle an interrupt',
  'read the system clock',
];

// Rust-regex syntax, which both Trufflepig (`re:`) and rg take unchanged.
const PATTERNS = [
  'static int __init \\w+_init',
  'EXPORT_SYMBOL_GPL\\(\\w+\\)',
  '#define\\s+\\w+_MAX\\s+\\d+',
  'struct \\w+_operations \\{',
  'if \\(!\\w+\\)\\s*return -ENOMEM;',
  'for \\(i = 0; i < \\w+; i\\+\\+\\)',
  'pr_err\\("',
  'return -EINVAL;',
  'spin_lock\\(&\\w+->lock\\)',
  'unlikely\\(\\w+ == NULL\\)',
];

/** `show sym:NAME` and the file its definition must be read from. */
const LANDINGS = [
  { name: 'schedule', path: 'kernel/sched/core.c' },
  { name: 'kmalloc', path: 'include/linux/slab.h' },
  { name: 'task_struct', path: 'include/linux/sched.h' },
];

/**
 * `refs NAME`: names used in a handful of files to thousands (`kmalloc`, cut at refs'
 * deadline). No target: the figures say how many files a refs answer reads and how long
 * it takes, each call parsing the files that use the name.
 */
const REFS = ['out_of_memory', 'vfs_read', 'ext4_journal_start', 'kstrtoull', 'kmalloc'];

module.exports = { IDENTIFIERS, FREE_TEXT, PATTERNS, LANDINGS, REFS };
