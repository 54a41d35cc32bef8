/**
 * The door of the auth area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export {
  endUserSessions,
  findUserByEmail,
  getSession,
  getUser,
  getWorkspace,
  getWorkspaceRecord,
  setClockOffset,
  touchBrowserSession,
  userNames,
} from './accounts-repository';
export { authArea, userSchema, workspaceSchema } from './contract';
export { userEntity } from './entities';
export type { BrowserSessionState, User, UserRecord, Workspace } from './entities';
export { confirmMfaEnrolment, disableMfa, mfaRequirement, mfaStatus, setMfaRequired, startMfaEnrolment } from './mfa';
export { hashPassword } from './password';
export { emailSchema, passwordSchema } from './schemas';
export {
  browserSession,
  changePassword,
  completeBrowserMfaSignIn,
  completeMfaSignIn,
  endSession,
  forgotPassword,
  listSessions,
  login,
  logout,
  profile,
  publicUser,
  register,
  resetPassword,
  startBrowserSession,
  updateProfile,
} from './service';
export type { PublicRequest } from './service';
