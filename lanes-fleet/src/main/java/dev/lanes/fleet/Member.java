package dev.lanes.fleet;

/**
 * A node of a fleet.
 *
 * @param id the node's id, unique in the fleet
 * @param address where it serves requests, as it last advertised it (a URL, {@code host:port},
 *     or empty; a leaving node keeps it while it hands its tenants over); the fleet does not
 *     interpret it
 */
public record Member(String id, String address) {}
