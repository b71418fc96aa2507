extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    var milliseconds: Double { seconds * 1000 }
}
