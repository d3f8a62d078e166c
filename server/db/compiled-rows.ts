import { Column, getTableName, is, noopDecoder, SQL, Subquery } from "drizzle-orm";

/** One selected field as drizzle orders them: where it goes in the row object, and what it is. */
export interface OrderedField {
  path: string[];
  field: unknown;
}

/** Turns one driver row (an array, in the order of the fields) into the object drizzle returns. */
export type RowMapper = (row: unknown[]) => Record<string, unknown>;

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/** The identity decoder every plain column and `sql` field has: its value is used as it comes. */
const passesThrough = (d: Decoder) =>
  d === noopDecoder || d.mapFromDriverValue === Column.prototype.mapFromDriverValue;

interface Node {
  /** Child key → a leaf (the field's index) or a nested object. */
  children: Map<string, number | Node>;
}

/**
 * drizzle's own row mapping (mapResultRow in drizzle-orm/utils), compiled once per statement into
 * one function that builds the row with an object literal: the same object, the same keys in the
 * same order, the same decoders, and the same rule for a left-joined table's object (null when
 * its first column is null, the object holds that table's columns only, and the join may be
 * missing). drizzle's generic version walks every field's path and asks `is(field, Column)` for
 * every value of every row: on the hottest reads (the session, a permit's detail) that was a
 * tenth of the request's own CPU time (decision 0018).
 */
export function compileRowMapper(
  fields: readonly OrderedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): RowMapper {
  const root: Node = { children: new Map() };
  const decoders: Decoder[] = [];
  const decode: boolean[] = [];
  // Per top-level object: the index of its first column and whether drizzle may turn it into null.
  const nullable = new Map<string, { first: number; table: string; mixed: boolean }>();
  fields.forEach(({ path, field }, index) => {
    const decoder = decoderOf(field);
    decoders.push(decoder);
    decode.push(!passesThrough(decoder));
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      let next = node.children.get(path[i]!);
      if (next === undefined) node.children.set(path[i]!, (next = { children: new Map() }));
      if (typeof next === "number") throw new Error(`field path ${path.join(".")} clashes with another`);
      node = next;
    }
    node.children.set(path[path.length - 1]!, index);
    if (joinsNotNullableMap && path.length === 2 && is(field, Column)) {
      const table = getTableName(field.table);
      const seen = nullable.get(path[0]!);
      if (!seen) nullable.set(path[0]!, { first: index, table, mixed: false });
      else if (seen.table !== table) seen.mixed = true;
    }
  });

  const lines: string[] = [];
  fields.forEach((_, i) => {
    lines.push(
      decode[i]
        ? `const v${i} = row[${i}] === null ? null : d[${i}].mapFromDriverValue(row[${i}]);`
        : `const v${i} = row[${i}];`,
    );
  });
  const literal = (node: Node, top: boolean): string => {
    const parts: string[] = [];
    for (const [key, child] of node.children) {
      let value = typeof child === "number" ? `v${child}` : literal(child, false);
      const rule = top ? nullable.get(key) : undefined;
      if (typeof child !== "number" && rule && !rule.mixed && !joinsNotNullableMap![rule.table]) {
        value = `v${rule.first} === null ? null : ${value}`;
      }
      parts.push(`${JSON.stringify(key)}: ${value}`);
    }
    return `{ ${parts.join(", ")} }`;
  };
  lines.push(`return ${literal(root, true)};`);
  // The code is made of field indexes and JSON-quoted keys of our own selects, nothing else.
  return new Function("d", `return function mapRow(row) {\n${lines.join("\n")}\n}`)(decoders) as RowMapper;
}

interface PreparedInternals {
  fields?: OrderedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/**
 * A drizzle prepared select (node-postgres or PGlite) whose rows are mapped by compileRowMapper()
 * instead of drizzle's generic loop; everything else (the statement observers, the driver call)
 * stays drizzle's. For the statements built once and run at every request.
 */
export function withCompiledRows<T extends object>(prepared: T): T {
  const internals = prepared as PreparedInternals;
  if (!internals.fields || internals.customResultMapper) {
    throw new Error("withCompiledRows() takes a prepared select of plain fields");
  }
  const mapRow = compileRowMapper(internals.fields, internals.joinsNotNullableMap);
  internals.customResultMapper = (rows) => {
    const out = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = mapRow(rows[i]!);
    return out;
  };
  return prepared;
}
