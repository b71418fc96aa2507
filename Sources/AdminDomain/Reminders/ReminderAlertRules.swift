import Foundation

/// Which alerts the last hour's figures raise, each with its sentence.
struct ReminderAlertRules {
    let options: ReminderAlertOptions

    /// `since` is `now`, and `began` `.firstSeen`, where the rows do not say when the trouble
    /// began. `oldestOverdue`: the scheduled time of the oldest reminder still waiting past
    /// its 5 minutes, in the 30 days the panel keeps.
    func alerts(
        hour: ReminderHealthReport?, lastSent: Int64?, oldestOverdue: Int64? = nil, newestAppData: Date?, now: Date
    )
        -> [ReminderAlert]
    {
        func alert(_ kind: ReminderAlert.Kind, _ sentence: String, since: Date?) -> ReminderAlert {
            ReminderAlert(
                kind: kind, sentence: sentence, since: since.map { min($0, now) } ?? now,
                began: since == nil ? .firstSeen : .fromData, asOf: now)
        }
        var alerts: [ReminderAlert] = []
        if let figures = hour?.figures {
            // Only reminders past their first minute: one that fell due seconds ago is not
            // yet a send that did not happen.
            let meant = figures.decided
            if meant > 0, figures.sent == 0 {
                let since = lastSent.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                let last =
                    since.map { "the last was sent at \(SQLiteTime.string($0)) UTC" }
                    ?? "none was sent in the last 30 days"
                alerts.append(
                    alert(
                        .nothingSent, "No reminder was sent in the last hour while \(meant.grouped) fell due; \(last).",
                        since: since))
            }
            // Under the target beyond chance: the top of the share's 95% (Wilson) interval is
            // under it too. A healthy backend's 2 failures in 30 (93%) read as an alert against
            // 95%, and the banner flapped.
            if meant >= options.minimumDue, let share = figures.onTimeShare, share < options.onTimeTarget,
                LiftInterval.wilson(figures.sentOnTime, meant).1 < options.onTimeTarget
            {
                alerts.append(
                    alert(
                        .onTimeBelowTarget,
                        """
                        Only \(Self.percent(share)) of the reminders due in the last hour were sent on time \
                        (\(figures.sentOnTime.grouped) of \(meant.grouped) due \
                        more than a minute ago and not cancelled); \
                        the target is \(Self.percent(options.onTimeTarget)).
                        """, since: nil))
            }
            if figures.sent + figures.failed >= options.minimumDue, let rate = figures.successRate,
                rate < options.successTarget,
                LiftInterval.wilson(figures.sent, figures.sent + figures.failed).1 < options.successTarget
            {
                alerts.append(
                    alert(
                        .successBelowTarget,
                        """
                        \(figures.failed.grouped) of the \((figures.sent + figures.failed).grouped) reminders \
                        tried in the last hour \
                        failed: \
                        a success rate of \(Self.percent(rate)), \
                        under the target of \(Self.percent(options.successTarget)).
                        """, since: nil))
            }
            if figures.overdue > options.overdueThreshold {
                // Overdue from five minutes after the oldest one still waiting was due.
                let overdueSince = oldestOverdue.map {
                    Date(timeIntervalSince1970: TimeInterval($0 + ReminderAccumulator.overdueAfter))
                }
                alerts.append(
                    alert(
                        .overdueAboveThreshold,
                        """
                        \(figures.overdue.grouped) reminders due in the last hour are still waiting \
                        more than 5 minutes after their time \
                        (the threshold is \(options.overdueThreshold.grouped)).
                        """, since: overdueSince))
            }
        }
        let silence = newestAppData.map { now.timeIntervalSince($0) } ?? .infinity
        if silence > options.appDataSilence {
            let sentence =
                newestAppData.map {
                    "No app data since \(SQLiteTime.string($0)) UTC: the app's backend may have stopped writing."
                }
                ?? "The app's tables have no rows with a time the panel can read: the app's backend may not be writing."
            alerts.append(alert(.noAppData, sentence, since: newestAppData))
        }
        return alerts
    }

    static func percent(_ share: Double) -> String {
        String(format: "%.1f%%", share * 100)
    }
}
