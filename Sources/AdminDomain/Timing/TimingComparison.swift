/// Sent at each user's usual hour against the control share sent at the fixed time: users
/// drawn into each, those who opened their push within a day of its send, and those who
/// reached the goal (of those whose goal could be judged), each lift with its 95% interval.
public struct TimingComparison: Sendable, Equatable, Codable {
    public struct Group: Sendable, Equatable, Codable {
        public var users = 0
        /// Users whose push's first day is over (due at least 24 hours ago): only they can be
        /// counted as opened within a day or not. A push still to come, or sent less than a
        /// day ago, is neither: a group sent later (the usual hour) would look worse.
        public var openJudged = 0
        /// Of `openJudged`, those who opened within a day of the send.
        public var openedInDay = 0
        /// Users whose goal is judged: all of a campaign's; a journey's entries whose window has closed.
        public var judged = 0
        public var converted = 0

        public init(users: Int = 0, openJudged: Int = 0, openedInDay: Int = 0, judged: Int = 0, converted: Int = 0) {
            self.users = users
            self.openJudged = openJudged
            self.openedInDay = openedInDay
            self.judged = judged
            self.converted = converted
        }

        public var openRate: Double? { openJudged == 0 ? nil : Double(openedInDay) / Double(openJudged) }
        /// Users whose push has not had its day yet.
        public var waiting: Int { users - openJudged }
        public var conversionRate: Double? { judged == 0 ? nil : Double(converted) / Double(judged) }

        mutating func add(_ other: Group) {
            users += other.users
            openJudged += other.openJudged
            openedInDay += other.openedInDay
            judged += other.judged
            converted += other.converted
        }
    }

    public var usual = Group()
    public var control = Group()

    public init(usual: Group = Group(), control: Group = Group()) {
        self.usual = usual
        self.control = control
    }

    /// Usual hour's open rate minus the control's.
    public var openLift: LiftInterval? {
        LiftInterval(
            converted: usual.openedInDay, of: usual.openJudged, against: control.openedInDay, of: control.openJudged)
    }

    /// Usual hour's goal rate minus the control's.
    public var goalLift: LiftInterval? {
        LiftInterval(converted: usual.converted, of: usual.judged, against: control.converted, of: control.judged)
    }

    mutating func add(_ other: TimingComparison) {
        usual.add(other.usual)
        control.add(other.control)
    }
}
