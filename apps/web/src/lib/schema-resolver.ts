import type { FormErrors } from '@mantine/form';

/** One problem a Standard Schema reports: its message and where in the value it sits. */
type StandardIssue = {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
};

type StandardResult = { readonly issues?: ReadonlyArray<StandardIssue> };

/** The part of the Standard Schema interface (https://standardschema.dev) a form needs; every zod 4 schema has it. */
export type StandardSchema = {
  readonly '~standard': { readonly validate: (value: unknown) => StandardResult | Promise<StandardResult> };
};

/**
 * A `validate` function for @mantine/form from a Standard Schema, so a form checks its values with
 * the shared zod schemas of @plinth/shared. Each issue's message lands on its dotted path (the
 * first message per field wins). Mantine 8.3 has no standard-schema resolver of its own (it came
 * with Mantine 9) and its deprecated `zodResolver` reads zod 3 errors, hence these few lines
 * rather than a resolver package. Only synchronous schemas are accepted: a form decides whether
 * its button is enabled on every render.
 */
export function schemaResolver<Values>(schema: StandardSchema): (values: Values) => FormErrors {
  return (values) => {
    const result = schema['~standard'].validate(values);
    if (result instanceof Promise) throw new Error('schemaResolver: asynchronous schemas are not supported');
    const errors: FormErrors = {};
    for (const issue of result.issues ?? []) {
      const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
      if (!(path in errors)) errors[path] = issue.message;
    }
    return errors;
  };
}
