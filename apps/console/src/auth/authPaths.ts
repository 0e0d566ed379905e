/** Routes of the sign-in flows (spec §2). The identity provider knows the three callbacks. */
export const authPaths = {
  root: '/auth',
  login: '/auth/login',
  register: '/auth/register',
  pendingApproval: '/auth/login/pending-approval',
  externalLogin: '/auth/login/external',
  verify: '/auth/verify',
  recovery: '/auth/recovery',
  interaction: '/interaction',
  loginSuccess: '/auth/login-success',
  tokenRenewSuccess: '/auth/token-renew-success',
  logoutSuccess: '/auth/logout-success',
} as const;
