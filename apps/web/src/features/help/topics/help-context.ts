/** Values from GET /api/v1/config that the help topics quote. */
export type HelpContext = {
  /** The port boards connect to the Plinth MQTT broker on. */
  mqttPort: number;
  /** Where support tickets and bug reports go; null until the configuration is read. */
  supportEmail: string | null;
};
