'use strict';
// One small interface over the three SQLite bindings, so every candidate runs the same SQL:
// exec(sql), run(sql, params), rows(sql, params) -> arrays, each(sql, params, fn),
// prepare(sql) -> { run(params), rows(params), free() }, close().
const path = require('path');

let sqlJsEngine;

/** sql.js as the index loads it today: the repository's own copy (root node_modules). */
async function sqlJs() {
  sqlJsEngine ??= await require('sql.js')();
  return sqlJsEngine;
}

function wrapSqlJs(db) {
  const prepare = (sql) => {
    const stmt = db.prepare(sql);
    return {
      run: (params = []) => {
        stmt.run(params);
      },
      rows: (params = []) => {
        stmt.bind(params);
        const out = [];
        while (stmt.step()) out.push(stmt.get());
        stmt.reset();
        return out;
      },
      free: () => stmt.free(),
    };
  };
  return {
    raw: db,
    exec: (sql) => db.exec(sql),
    run: (sql, params = []) => db.run(sql, params),
    prepare,
    rows: (sql, params = []) => {
      const s = prepare(sql);
      try {
        return s.rows(params);
      } finally {
        s.free();
      }
    },
    close: () => db.close(),
  };
}

/** An in-memory sql.js database, from a file's bytes or empty. */
async function openSqlJs(bytes) {
  const SQL = await sqlJs();
  return wrapSqlJs(bytes ? new SQL.Database(bytes) : new SQL.Database());
}

function wrapBetter(db) {
  const cache = new Map();
  const stmtOf = (sql) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const prepare = (sql) => {
    const stmt = db.prepare(sql);
    const reader = stmt.reader;
    if (reader) stmt.raw(true);
    return {
      run: (params = []) => {
        stmt.run(...params);
      },
      rows: (params = []) => stmt.all(...params),
      free: () => {},
    };
  };
  return {
    raw: db,
    exec: (sql) => db.exec(sql),
    run: (sql, params = []) => {
      stmtOf(sql).run(...params);
    },
    prepare,
    rows: (sql, params = []) => {
      const s = stmtOf(sql);
      return s.raw(true).all(...params);
    },
    close: () => db.close(),
  };
}

/** better-sqlite3 12.11.1: native SQLite, file access, FTS5 (and FTS4). */
function openBetter(file, { readonly = false } = {}) {
  const Database = require('better-sqlite3');
  return wrapBetter(new Database(file, { readonly, fileMustExist: readonly }));
}

function wrapWasm(db) {
  const toArrays = (objs) => objs.map((o) => Object.values(o));
  const prepare = (sql) => {
    const stmt = db.prepare(sql);
    return {
      run: (params = []) => {
        stmt.run(params);
      },
      rows: (params = []) => toArrays(stmt.all(params)),
      free: () => stmt.finalize(),
    };
  };
  return {
    raw: db,
    exec: (sql) => db.exec(sql),
    run: (sql, params = []) => {
      db.run(sql, params);
    },
    prepare,
    rows: (sql, params = []) => toArrays(db.all(sql, params)),
    close: () => db.close(),
  };
}

/** node-sqlite3-wasm 0.8.x: SQLite in WebAssembly with a VFS over node:fs (no whole-file load). */
function openWasm(file, { readonly = false } = {}) {
  const { Database } = require('node-sqlite3-wasm');
  return wrapWasm(new Database(path.resolve(file), { readOnly: readonly, fileMustExist: readonly }));
}

module.exports = { sqlJs, openSqlJs, openBetter, openWasm };
