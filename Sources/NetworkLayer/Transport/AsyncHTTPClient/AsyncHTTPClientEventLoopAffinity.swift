#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore

    /// Which event loop a transport's exchanges ask AsyncHTTPClient to run their delegate on: a request
    /// alone in flight on the transport's home loop, the others on the group's loops in turn.
    ///
    /// AsyncHTTPClient calls a delegate on the request's own event loop, which it picks before it picks
    /// a connection. With no preference it takes the group's next loop, and then leases whichever
    /// connection is idle: a run of requests one after another reuses one connection while every other
    /// request runs its delegate on another loop, so that each of its callbacks (head, body, end) hops
    /// between the two threads. A lone request that prefers the home loop is sent on a connection of
    /// that loop when one is idle, and a new connection for it opens there, so a run of them never hops.
    /// Requests sent while others are in flight take the group's loops in turn, so that a burst spreads
    /// its connections over them, as AsyncHTTPClient's own choice would for a caller off its loops;
    /// naming the loop lets the exchange hand the request to it once (see ``AsyncHTTPClientExchange``),
    /// where AsyncHTTPClient would hop to it for each of its steps. Only listed loops are handed out:
    /// AsyncHTTPClient traps on a preference its group does not list.
    final class AsyncHTTPClientEventLoopAffinity: Sendable {
        /// The loop a request alone in flight prefers; `nil` when the group does not list the loop it
        /// hands out (AsyncHTTPClient traps on a preference outside its group), so no request has one.
        let home: (any EventLoop)?
        /// The group's loops, as its iterator lists them, which the requests among others take in turn.
        let loops: [any EventLoop]
        /// The transport's exchanges under way, and the next of ``loops`` to hand out.
        private let state = Locked((inFlight: 0, nextLoop: 0))

        /// The affinity of a transport over a client of `group`, whose next loop becomes its home.
        init(group: any EventLoopGroup) {
            let loop = group.next()
            let loops = Array(group.makeIterator())
            home = loops.contains { $0 === loop } ? loop : nil
            self.loops = home == nil ? [] : loops
        }

        /// Counts an exchange as under way and returns the loop it prefers: the home loop when it is
        /// the only one, else the next of ``loops``; `nil` (no preference) when there is no home. Each
        /// call is matched by one ``end()``.
        func begin() -> (any EventLoop)? {
            state.withLock { state in
                defer { state.inFlight += 1 }
                guard let home else { return nil }
                if state.inFlight == 0 { return home }
                defer { state.nextLoop = (state.nextLoop + 1) % loops.count }
                return loops[state.nextLoop]
            }
        }

        /// Counts an exchange as no longer under way.
        func end() {
            state.withLock { $0.inFlight -= 1 }
        }
    }
#endif
