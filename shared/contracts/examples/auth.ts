import type { authArea } from '../auth';
import type { AreaExamples } from './types';
import * as W from './world';

export const authExamples: AreaExamples<typeof authArea> = {
  register: {
    request: {
      workspaceName: "TODO_workspaceName",
      email: "ada.lovelace@example.com",
      password: "TODO_password",
      name: "TODO_name",
    },
    responses: {
      201: {
        data: {
          workspace: W.workspace,
          user: W.user,
          session: {
            token: "TODO_token",
            expiresAt: "2026-03-14T09:30:00.000Z",
          },
        },
      },
    },
  },
  login: {
    request: {
      email: "ada.lovelace@example.com",
      password: "TODO_password",
    },
    responses: {
      200: {
        data: {
          workspace: W.workspace,
          user: W.user,
          session: {
            token: "TODO_token",
            expiresAt: "2026-03-14T09:30:00.000Z",
          },
        },
      },
    },
  },
  getProfile: {
    responses: {
      200: {
        data: {
          user: W.user,
          workspace: W.workspace,
          session: {
            expiresAt: "2026-03-14T09:30:00.000Z",
          },
        },
      },
    },
  },
  updateProfile: {
    request: {
      name: "TODO_name",
      email: "ada.lovelace@example.com",
    },
    responses: {
      200: {
        data: {
          user: W.user,
          workspace: W.workspace,
          session: {
            expiresAt: "2026-03-14T09:30:00.000Z",
          },
        },
      },
    },
  },
  changePassword: {
    request: {
      currentPassword: "TODO_currentPassword",
      newPassword: "TODO_newPassword",
    },
    responses: {

    },
  },
  forgotPassword: {
    request: {
      email: "ada.lovelace@example.com",
    },
    responses: {
      202: {
        data: {
          message: "TODO_message",
        },
      },
    },
  },
  resetPassword: {
    request: {
      token: "TODO_token",
      newPassword: "TODO_newPassword",
    },
    responses: {

    },
  },
};
