/** Options embedded in the launch URL; sent as a JSON object or as a string holding one. */
export interface LaunchOptions {
  /** Absolute http(s) URL the player is sent to when the session expires in the game page. */
  restoreSessionUrl?: string;
  [option: string]: unknown;
}
