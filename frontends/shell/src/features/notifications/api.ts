import { api } from '@bahi/ui';

export interface Notification {
  id: string;
  title: string;
  message: string;
  type: 'info' | 'warning' | 'success' | 'error';
  is_read: boolean;
  link: string | null;
  created_at: string;
}

export interface NotificationList {
  notifications: Notification[];
  unreadCount: number;
}

export const POPUP_LIMIT = 7;

export const fetchNotifications = (limit: number) => api.get<NotificationList>('/notifications', { limit });
export const markRead = (id: string) => api.post(`/notifications/${id}/read`);
export const markAllRead = () => api.post('/notifications/read-all');
