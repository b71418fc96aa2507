import Synchronization

/// What inner middleware learns about a request that the outer request log needs: the
/// context is a value passed down, so the staff id goes through this shared box.
public final class RequestNotes: Sendable {
    private let staff = Mutex<Int64?>(nil)

    public init() {}

    public var staffID: Int64? {
        get { staff.withLock { $0 } }
        set { staff.withLock { $0 = newValue } }
    }
}
