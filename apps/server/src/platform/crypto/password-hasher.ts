import argon2 from 'argon2';

/** One-way password hashing. argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** argon2id's cost: memory in KiB, passes over it, lanes. */
export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export class Argon2PasswordHasher implements PasswordHasher {
  /** `cost`: the library's defaults when not given. Verifying reads the cost from the hash itself. */
  constructor(private readonly cost?: Argon2Cost) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.cost });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      // A malformed stored hash verifies nothing.
      return false;
    }
  }
}

/**
 * A fixed argon2id hash to verify against when an account does not exist, so a sign-in attempt
 * takes as long for an unknown address as for a wrong password.
 */
export const timingDecoyHash =
  '$argon2id$v=19$m=65536,p=4,t=3$oGZUBJnOQOKswpI3b0li6w$fRFpxfcPD9n+QlYh64CoHA3OQkCTO8q6TpezXHxt8pw';
