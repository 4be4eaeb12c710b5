/** The test-only image `attacker` (test/support/attacker.sh): a hostile game server that tries what ATTACK says, then echoes. */
export const attackerImage = (name = 'attacker', limits: object = {}) => ({
  name,
  defaultTag: 'latest',
  public: true,
  limits,
  tags: {
    latest: {
      command: ['/bin/sh', './test/support/attacker.sh', process.execPath, './server/sample/echo-server.mjs'],
      ports: [
        { name: 'game', type: 'udp' as const, container: 7777 },
        { name: 'query', type: 'tcp' as const, container: 7778 },
      ],
    },
  },
});
