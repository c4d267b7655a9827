// The operations settings: defaults, and refusals that stop the service at start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

const base = { DATA_DIR: '/tmp/slotline-config-test' };

test('metrics are off, shutdown is immediate and bounded, no proxy is trusted by default', () => {
  const c = loadConfig(base);
  assert.equal(c.metricsPort, null);
  assert.equal(c.metricsHost, '127.0.0.1');
  assert.equal(c.metricsToken, null);
  assert.equal(c.trustProxy, null);
  assert.equal(c.shutdownDelayMs, 0);
  assert.equal(c.shutdownTimeoutMs, 30_000);
});

test('metrics and shutdown settings are read and checked', () => {
  const c = loadConfig({
    ...base,
    METRICS_PORT: '9464',
    METRICS_HOST: '0.0.0.0',
    METRICS_TOKEN: 'a-long-enough-token',
    SHUTDOWN_DELAY_MS: '10000',
    SHUTDOWN_TIMEOUT_MS: '60000',
  });
  assert.deepEqual(
    [c.metricsPort, c.metricsHost, c.metricsToken, c.shutdownDelayMs, c.shutdownTimeoutMs],
    [9464, '0.0.0.0', 'a-long-enough-token', 10_000, 60_000],
  );
  for (const [name, value] of [
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has a space in it here'],
    ['METRICS_PORT', '70000'],
    ['SHUTDOWN_DELAY_MS', '-1'],
    ['SHUTDOWN_TIMEOUT_MS', '10'],
  ] as const) {
    assert.throws(() => loadConfig({ ...base, [name]: value }), ConfigError, `${name}=${value}`);
  }
});
