import type { portalArea } from '../../portal';
import type { AreaExamples } from './types';
import { ids } from './world';

export const portalExamples: AreaExamples<typeof portalArea> = {
  createPortalSession: {
    params: { id: ids.member },
    responses: {
      201: {
        data: {
          token: 'fl_cs_eyJ3cyI6IndzXzAxanB6OGExYjJjM2Q0ZTVmNmc3aDhqOWswIn0.Hq7Lr2x9VbKp3nZtW5cY8mD1fG4jS6uE0aQ2oI9wT3k',
          expiresAt: '2026-03-20T10:30:00.000Z',
        },
      },
    },
  },
  getCorsSettings: {
    responses: { 200: { data: { allowedOrigins: ['https://shop.example.com'], updatedAt: '2026-03-20T10:00:00.000Z' } } },
  },
  putCorsSettings: {
    request: { allowedOrigins: ['https://shop.example.com', 'https://www.shop.example.com'] },
    responses: { 200: { data: { allowedOrigins: ['https://shop.example.com', 'https://www.shop.example.com'], updatedAt: '2026-03-20T10:00:00.000Z' } } },
  },
};
