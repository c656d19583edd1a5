module profconv.test/gowork

go 1.19
