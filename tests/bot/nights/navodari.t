# Cupa Zarul Magic: random groups of 4 (NAV-I), 2 qualify (NAV-QUAL), crossover (NAV-II)
@club name:"Zarul Magic" timezone:Europe/Bucharest
@director ana
@clock 2026-03-06 18:00
ana: /tournament new name:"Cupa" preset:navodari-table start:"2026-03-06 20:00" approval:no seed:7
p1: /register born:1960-01-01
p2: /register born:1970-02-02
p3: /register born:1980-03-03
p4: /register born:1990-04-04
p5: /register born:1955-05-05
p6: /register born:2001-06-06
p7: /register born:1975-07-07
p8: /register born:1985-08-08
minor: /register born:2012-01-01
p1: /confirm
p2: /confirm
p3: /confirm
p4: /confirm
p5: /confirm
p6: /confirm
p7: /confirm
p8: /confirm
@clock 2026-03-06 19:30
p1: /checkin
p2: /checkin
p3: /checkin
p5: /checkin
p6: /checkin
p7: /checkin
p8: /checkin
ana: /draw
# round 1 (20:00): p4 is late against p2 and plays on from 0-2
@clock 2026-03-06 20:25
p4: /checkin
@clock 2026-03-06 20:40
ana: /result p5 5-1 p8
ana: /result p3 5-2 p6
p2: /report 5-1
p4: /accept
ana: /result p1 5-3 p7
# round 2 (20:45)
@clock 2026-03-06 21:25
ana: /result p6 5-3 p8
ana: /result p5 5-4 p3
ana: /result p1 5-2 p4
ana: /result p2 5-4 p7
# round 3 (21:30): p3, p6 and p8 end level, a cycle: extra games (NAV-TIE)
@clock 2026-03-06 22:10
ana: /result p8 5-3 p3
ana: /result p5 6-4 p6
ana: /result p7 5-0 p4
ana: /result p1 5-4 p2
ana: /standings group:1
ana: /result p3 1-0 p6
ana: /result p3 2-0 p8
ana: /result p6 1-0 p8
# crossover semi-finals to 5 (NAV-V), then the final and the third place to 7 (NAV-IV)
@clock 2026-03-06 23:00
ana: /result p5 5-3 p2
ana: /result p1 5-1 p3
@clock 2026-03-06 23:50
ana: /result p5 7-5 p1
ana: /result p3 7-2 p2
ana: /bracket
