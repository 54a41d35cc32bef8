/**
 * Numbers shared by the CDK stack and the local runtime. One module, so production and
 * `npm start` never drift apart.
 */
export const config = {
  /** Lambda runtime settings per area function. */
  lambda: {
    memoryMiB: 1024,
    timeoutSeconds: 15,
    logRetentionDays: 30,
  },
  http: {
    /** Largest accepted request body; larger is 413 PAYLOAD_TOO_LARGE. */
    maxBodyBytes: 1024 * 1024,
    /** What the transport itself accepts before the handler sees it (Lambda's sync payload limit). */
    transportMaxBodyBytes: 6 * 1024 * 1024,
  },
  auth: {
    sessionTtlSeconds: 7 * 24 * 3600,
    resetTokenTtlSeconds: 3600,
    minPasswordLength: 10,
    /** Failed logins for one e-mail inside one window before 429. */
    loginFailureLimit: 5,
    loginFailureWindowSeconds: 15 * 60,
    /** lastUsedAt of an API key is written at most this often. */
    apiKeyLastUsedResolutionSeconds: 60,
  },
  /** Password hashing (scrypt, memory-hard): N=2^15, r=8 -> 32 MiB per hash. */
  scrypt: { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 },
} as const;
