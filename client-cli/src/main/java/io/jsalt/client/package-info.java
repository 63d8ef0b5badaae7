/**
 * A small public API for programs that run beside a jsalt master and react to what happens on it: subscribe
 * to the master's event bus with {@link io.jsalt.client.EventSubscription#subscribe}, pick events by tag with a
 * {@link io.jsalt.client.TagPattern}, and receive them in an {@link io.jsalt.client.EventListener}. The bus is
 * a Unix socket in the master's {@code sock_dir} that only the master's user can open; see docs/events.md.
 * Nothing else in {@code io.jsalt} is a public API.
 */
package io.jsalt.client;
