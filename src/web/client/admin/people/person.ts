/** A person as GET /users gives them to the people pages. */
export interface Person {
  user_id: number;
  full_name: string;
  email: string;
  delivery_email?: string | null;
  role: number;
  is_active: boolean;
  is_bot: boolean;
  date_joined: string;
  avatar_url: string | null;
}
