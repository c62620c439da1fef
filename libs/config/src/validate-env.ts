import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync } from 'class-validator';

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/**
 * Validates the process environment against an env class once, at boot.
 * Messages name the variable and the rule it broke, never the value: a
 * DATABASE_URL carries a password.
 */
export function validateEnv<T extends object>(schema: ClassConstructor<T>, env: Record<string, unknown>): T {
  const instance = plainToInstance(schema, env, {
    enableImplicitConversion: false,
    exposeDefaultValues: true,
  });
  const errors = validateSync(instance, {
    whitelist: false,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) {
    const problems = errors.map(
      (error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ')}`,
    );
    throw new InvalidEnvironmentError(problems);
  }
  return instance;
}

export function envValidator<T extends object>(schema: ClassConstructor<T>) {
  return (env: Record<string, unknown>): T => validateEnv(schema, env);
}
