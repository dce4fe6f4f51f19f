package dev.lanes.internal.writer;

import dev.lanes.internal.sqlite.FaultInjector;

/**
 * Opens a lane's writer connection, on the lane's holder, each time the lane needs one: at the
 * first use and after an eviction or idle release closed it. What the connection is checked
 * against on open (the file's identity, the lease) and who is told (the connection budget, the
 * database) is the connector's business; the lane only uses what it returns.
 */
public interface WriterConnector {
    /**
     * Opens and checks a writer connection.
     *
     * @param faults the lane's fault injector (tests), to hand to the connection's steps
     * @throws Exception when no usable connection can be had; the lane then goes dead
     */
    WriterConnection open(FaultInjector faults, WriterCounters counters) throws Exception;
}
