package dev.lanes.fleet.internal;

/**
 * One etcd lease of this node and its local deadline. A node that loses its lease registers
 * again on a new one with a new clock; the old clock stays lost, so a fence made for an epoch
 * claimed under the old lease never passes a commit again, whatever the new lease does.
 *
 * @param id the lease's id
 * @param clock its local deadline
 */
public record LeaseHandle(long id, LeaseClock clock) {}
