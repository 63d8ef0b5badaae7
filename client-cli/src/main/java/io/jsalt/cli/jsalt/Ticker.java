package io.jsalt.cli.jsalt;

/** A monotonic clock in nanoseconds; tests give the waiting logic a fake one. */
@FunctionalInterface
interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    long nanoTime();
}
