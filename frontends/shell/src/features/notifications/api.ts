import type { NotificationRow as Notification, NotificationList } from '@bahi/contracts';
import { api } from '@bahi/ui';

// GET /notifications, typed by the route's response schema (issue #19).
export type { Notification, NotificationList };

export const POPUP_LIMIT = 7;

export const fetchNotifications = (limit: number) => api.get<NotificationList>('/notifications', { limit });
export const markRead = (id: string) => api.post(`/notifications/${id}/read`);
export const markAllRead = () => api.post('/notifications/read-all');
