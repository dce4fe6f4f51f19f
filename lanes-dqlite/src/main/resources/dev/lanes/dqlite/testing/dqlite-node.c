/*
 * One dqlite node for tests and benchmarks (compiled by dev.lanes.dqlite.testing.LocalCluster).
 *
 *   dqlite-node ID ADDRESS DATA_DIR
 *
 * ADDRESS is host:port; the node binds it and names itself by it. Node 1 bootstraps a cluster of
 * one (libdqlite does that for ID 1 when DATA_DIR is empty); any other node waits to be added by
 * a client (ADD, then ASSIGN). The node prints "ready ID ADDRESS" on stdout once it serves, and
 * stops cleanly on SIGTERM or SIGINT (the tests mostly kill it with SIGKILL).
 *
 * Three settings matter for the tests:
 * - a network-latency hint of 10 ms, so that an election takes ~150 ms instead of seconds;
 * - a connect function that sets TCP_NODELAY on the sockets raft uses between nodes: libdqlite
 *   1.11's own connect function does not, and Nagle's algorithm then delays small raft messages
 *   (single-row commits fall from ~350/s to ~65/s, p99 ~50 ms);
 * - SIGPIPE ignored: a write to the socket of a peer that was killed would otherwise kill this
 *   node too (libdqlite and libuv leave that to the program, as Go's runtime does for go-dqlite).
 */
#include <dqlite.h>

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int connect_nodelay(void *arg, const char *address, int *fd)
{
	char host[256];
	const char *colon = strrchr(address, ':');
	struct addrinfo hints;
	struct addrinfo *found;
	struct addrinfo *ai;
	int one = 1;
	int rv;
	(void)arg;

	if (colon == NULL || (size_t)(colon - address) >= sizeof host) {
		return 1;
	}
	memcpy(host, address, (size_t)(colon - address));
	host[colon - address] = '\0';

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, colon + 1, &hints, &found) != 0) {
		return 1;
	}
	rv = 1;
	for (ai = found; ai != NULL; ai = ai->ai_next) {
		int s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (s < 0) {
			continue;
		}
		if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0) {
			*fd = s;
			rv = 0;
			break;
		}
		close(s);
	}
	freeaddrinfo(found);
	return rv;
}

int main(int argc, char *argv[])
{
	dqlite_node *node;
	dqlite_node_id id;
	sigset_t stop_signals;
	int sig;
	int rv;

	if (argc != 4) {
		fprintf(stderr, "usage: %s ID ADDRESS DATA_DIR\n", argv[0]);
		return 2;
	}
	id = strtoull(argv[1], NULL, 10);

	/* Block the stop signals before libdqlite starts its threads, so that they inherit the mask
	 * and only sigwait() below receives them. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
	signal(SIGPIPE, SIG_IGN);

	rv = dqlite_node_create(id, argv[2], argv[3], &node);
	if (rv != 0) {
		fprintf(stderr, "dqlite_node_create: %d\n", rv);
		return 1;
	}
	if ((rv = dqlite_node_set_bind_address(node, argv[2])) != 0 ||
	    (rv = dqlite_node_set_connect_func(node, connect_nodelay, NULL)) != 0 ||
	    (rv = dqlite_node_set_network_latency_ms(node, 10)) != 0) {
		fprintf(stderr, "dqlite_node_set_*: %d: %s\n", rv, dqlite_node_errmsg(node));
		return 1;
	}
	rv = dqlite_node_start(node);
	if (rv != 0) {
		fprintf(stderr, "dqlite_node_start: %d: %s\n", rv, dqlite_node_errmsg(node));
		return 1;
	}
	printf("ready %llu %s\n", id, argv[2]);
	fflush(stdout);

	while (sigwait(&stop_signals, &sig) != 0) {
	}
	dqlite_node_stop(node);
	dqlite_node_destroy(node);
	return 0;
}
