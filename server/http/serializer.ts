import { isDeepStrictEqual } from "node:util";
import { serializerCompiler } from "fastify-type-provider-zod";

type SerializerCompiler = typeof serializerCompiler;

/**
 * How a route's response becomes JSON. The response schemas are the API's contract (OpenAPI at
 * /api/docs, and the web app's types); who checks them depends on where the app runs:
 *   - development and tests (`strict`): every response is parsed with its zod schema, and must come
 *     out of it unchanged. A field the schema does not name (a column a presenter forgot to leave
 *     out), a wrong type or a missing field fails the request with a 500 that names the route, so
 *     the API tests catch a presenter that drifts from its contract, and what the schema would have
 *     stripped can never reach a user unnoticed;
 *   - production: JSON.stringify of what the presenter built, nothing else. The presenters are the
 *     ones the tests held to their schemas, and the check cost the list a tenth of its time
 *     (docs/PERFORMANCE.md, performance issue part 3).
 */
export function responseSerializer(strict: boolean): SerializerCompiler {
  if (!strict) return () => (data) => JSON.stringify(data);
  return (route) => {
    const checked = serializerCompiler(route);
    return (data) => {
      const json = checked(data);
      const sent = JSON.stringify(data);
      if (json !== sent && !isDeepStrictEqual(JSON.parse(json), JSON.parse(sent))) {
        throw new Error(
          `${route.method} ${route.url}: the response is not exactly what its schema describes ` +
            `(a field the schema does not name, or a value it would change)`,
        );
      }
      return json;
    };
  };
}
