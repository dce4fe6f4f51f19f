package dev.lanes.fleet;

/**
 * A live node of a fleet.
 *
 * @param id the node's id, unique in the fleet
 * @param address where it serves requests, as it advertised it (a URL, {@code host:port}, or
 *     empty); the fleet does not interpret it
 */
public record Member(String id, String address) {}
