# Polish 100-square draughts: match and rematch (WAR-V), a game is won, drawn or lost (WAR-GAME)
@club name:"Warcaby 55+" timezone:Europe/Warsaw
@director ana
@clock 2026-04-13 09:00
ana: /tournament new name:"Festiwal" preset:warcaby-100 start:"2026-04-13 10:45" seed:7
p1: /register
p2: /register
p3: /register
p4: /register
p5: /register
p6: /register
p7: /register
p8: /register
p1: /confirm
p2: /confirm
p3: /confirm
p4: /confirm
p5: /confirm
p6: /confirm
p7: /confirm
p8: /confirm
@clock 2026-04-13 10:15
p1: /checkin
p2: /checkin
p3: /checkin
p5: /checkin
p6: /checkin
p7: /checkin
p8: /checkin
ana: /draw
# round 1: a drawn match goes to two shortened games (2 x 5 min); p4 never comes
@clock 2026-04-13 11:10
ana: /result p5 3-1 p8
p3: /report 2-2 3-1
p6: /accept
ana: /result p1 3-1 p7
@wait 10m
# round 2 and 3
@clock 2026-04-13 11:40
ana: /result p6 4-0 p8
ana: /result p5 3-1 p3
ana: /result p2 4-0 p7
@clock 2026-04-13 12:10
ana: /result p3 3-1 p8
ana: /result p5 3-1 p6
ana: /result p1 3-1 p2
ana: /standings
# knockout: 2 x 5, 2 x 3, 2 x 2 minutes, then a lot (WAR-V)
@clock 2026-04-13 12:40
ana: /result p5 2-2 2-2 3-1 p2
ana: /result p1 2-2 2-2 2-2 2-2 p3 lot:second
@clock 2026-04-13 13:20
ana: /result p3 3-1 p5
ana: /result p1 4-0 p2
