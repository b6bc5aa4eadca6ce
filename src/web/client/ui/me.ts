import { api } from "./api";

/** Who is signed in and which organization this is: what every area needs before drawing. */

export interface Me {
  user_id: number;
  email: string;
  full_name: string;
  role: number;
  is_admin: boolean;
  is_owner: boolean;
  avatar_url: string | null;
}

export interface ServerInfo {
  realm_name: string;
  realm_uri: string;
  zulip_version: string;
  zulip_feature_level: number;
}

export async function loadSession(): Promise<{ me: Me; server: ServerInfo }> {
  const [me, server] = await Promise.all([api<Me & { result: string }>("GET", "/users/me"), api<ServerInfo & { result: string }>("GET", "/server_settings")]);
  return { me, server };
}

export const ROLE_NAMES: Record<number, string> = { 100: "Owner", 200: "Administrator", 300: "Moderator", 400: "Member", 600: "Guest" };
