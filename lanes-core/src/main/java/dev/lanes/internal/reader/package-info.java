/**
 * The readers of one database: read-only connections, admission to them in arrival order with
 * deadlines and cancellation, the running of a read on the right thread, and snapshots held across
 * calls.
 *
 * <h2>Admission</h2>
 * At most {@code readers} reads hold a reader at a time; each holds a {@link Lease} (a slot, plus
 * a connection once opened). A read that finds a slot free and nobody waiting takes it at once;
 * otherwise it joins one FIFO queue of waiters. A slot freed while reads wait goes to the head
 * waiter, so a newcomer never overtakes a waiter (no barging), and waiters are served, and time
 * out, in arrival order. A waiter is either a thread parked on its own condition (a platform
 * thread that will run the read itself, or a virtual thread that will hand it to the pool) or an
 * asynchronous read, whose grant callback submits it to the pool and whose timeout runs on the
 * runtime's timer; no pool thread ever waits for admission. A wait ends after {@code
 * readerCheckoutTimeout} with {@link dev.lanes.AdmissionTimeoutException}, or earlier at the
 * read's own deadline. The queue, with its expiry and the delivery of refusals, is a {@link
 * WaitQueue} on its {@link ReaderSet}'s lock.
 *
 * <h2>Connections</h2>
 * Connections open lazily, on the thread that runs the read (always a platform thread). Each has a
 * home slot in {@link IdleSlots}, where it waits between reads, preferably for the thread that
 * used it last. A read returns its lease with a verdict: reusable, or dirty, in which case the
 * connection is closed and a later read opens a replacement; {@link ReaderCloser} closes
 * connections off the lock, each on a platform thread.
 *
 * <h2>Metrics</h2>
 * Every end of a wait for a reader, with one or without, is reported once ({@code
 * MetricsReporter.readerCheckout}), on the thread that learns it and never under the lock: a read
 * admitted at once reports a wait of 0; a parked read when it wakes; an asynchronous one when its
 * grant or refusal is delivered, or when it is cancelled while it waits. The gauges {@code
 * inUse()} and {@code waiting()} read the free slots and the reads queued, without the lock.
 *
 * <h2>Closing</h2>
 * {@code ReaderSet.beginClose} stops admission ({@link dev.lanes.ClosingException}, then {@link
 * dev.lanes.ClosedException}), closes the idle connections at once, lets reads in flight (and,
 * when draining, the reads already waiting) finish, closes each connection as it comes back, and
 * completes the returned future once none is checked out and none waits. That future ({@code
 * closed}) is made when first asked for or at the close, whichever comes first, set once by
 * compare-and-set, so that an open set holds none; it is never handed to users as is.
 *
 * <p>A close that does not wait for reads ({@code ReaderSet.abortReads}: a shutdown, or a close
 * past its timeout) stops the reads running inside SQLite and ends the ones held between pages
 * ({@link ReadAborts}), so that their readers come back and the close completes.
 *
 * <p>Depends on file, guard, scheduler, sql, sqlite, telemetry and util.
 */
package dev.lanes.internal.reader;

